/**
 * The report pages' posts that hold much memory while they are read and checked: a workbook
 * upload (the file, then every row of its sheets) and a grid post of many rows (its JSON text,
 * then the rows and their problems). At most HEAVY_POSTS_AT_ONCE of them are read at once; another
 * waits its turn a short while, then is refused (503 with Retry-After), so that a burst neither
 * piles up the memory of all of them nor keeps the process from answering anything else. The
 * bound is this process's memory, so the count is the process's own.
 */
import type { HeadersFunction } from "@remix-run/node";

/**
 * One at a time: at 100,000 rows one refused upload holds about 300 MB while it is checked (the
 * report's rows, the sheet's rows, their problems), two at once took a fresh server to 720 MB.
 */
export const HEAVY_POSTS_AT_ONCE = 1;
/** How long a heavy post waits for its turn before it is refused. */
const TURN_WAIT_MS = 3_000;
/** What a refused heavy post is told to wait (the Retry-After header, and the page's message). */
export const HEAVY_POST_RETRY_SECONDS = 10;
/** A post with a body larger than this, or of undeclared length, is a heavy one: a grid save of a few thousand rows. */
const HEAVY_POST_BYTES = 256 * 1024;

export const SERVER_BUSY = "The portal is busy with other large uploads and saves. Nothing was saved: please try again in {{seconds}} seconds.";

/** At most `limit` holders at once; the others wait in order. */
class Permits {
  private held = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /** Takes a permit: true once one is free, false when none came free within `waitMs` or the request was given up. */
  take(waitMs: number, signal: AbortSignal): Promise<boolean> {
    if (this.held < this.limit) {
      this.held++;
      return Promise.resolve(true);
    }
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const giveUp = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", giveUp);
        this.waiting.splice(this.waiting.indexOf(grant), 1);
        resolve(false);
      };
      // The permit passes straight from the holder that gives it back: `held` stays the same.
      const grant = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", giveUp);
        resolve(true);
      };
      const timer = setTimeout(giveUp, waitMs);
      signal.addEventListener("abort", giveUp);
      this.waiting.push(grant);
    });
  }

  giveBack() {
    const next = this.waiting.shift();
    if (next) next();
    else this.held--;
  }
}

const heavyPosts = new Permits(HEAVY_POSTS_AT_ONCE);

/** Whether a post is heavy: an upload (multipart), or a body larger than HEAVY_POST_BYTES or of undeclared length. */
export function isHeavyPost(request: Request): boolean {
  if (request.headers.get("Content-Type")?.startsWith("multipart/form-data")) return true;
  const declared = request.headers.get("Content-Length");
  return declared === null ? request.body !== null : Number(declared) > HEAVY_POST_BYTES;
}

/** Runs `work` in its turn among the heavy posts, or answers `busy()` when its turn does not come soon. */
export async function inHeavyPostTurn<T>(request: Request, work: () => Promise<T>, busy: () => T): Promise<T> {
  if (!(await heavyPosts.take(TURN_WAIT_MS, request.signal))) return busy();
  try {
    return await work();
  } finally {
    heavyPosts.giveBack();
  }
}

/** The headers of a refusal for want of a turn. */
export const busyHeaders = () => ({ "Retry-After": String(HEAVY_POST_RETRY_SECONDS) });

/** A report route's `headers`: a refusal for want of a turn says when to try again, on the page as on its data. */
export const heavyPostHeaders: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers();
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};
