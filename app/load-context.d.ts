import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    requestId: string;
    cspNonce: string;
    clientIp: string;
  }
  interface Future {
    v3_singleFetch: true;
  }
}
