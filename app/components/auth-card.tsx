import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LanguageLinks } from "./language-switcher";
import { Logo } from "./icons";

/** The centred card of the sign-in, password and lock screens; `aside`, a link under the form. */
export function AuthCard({ title, subtitle, aside, children }: { title: string; subtitle?: ReactNode; aside?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <main className="auth">
      <section className="auth__card" aria-labelledby="auth-title">
        <div className="auth__brand">
          <Logo />
          <span>{t("MPP Data Portal")}</span>
        </div>
        <h1 id="auth-title" className="auth__title">
          {title}
        </h1>
        {subtitle ? <p className="auth__subtitle">{subtitle}</p> : null}
        {children}
        {aside ? <p className="auth__aside">{aside}</p> : null}
      </section>
      <footer className="auth__footer">
        <LanguageLinks />
        <p>{t("Copyright © 2020 Medicines Patent Pool. All rights reserved.")}</p>
      </footer>
    </main>
  );
}
