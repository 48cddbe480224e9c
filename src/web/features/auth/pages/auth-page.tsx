import { Suspense, useRef, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { Logo } from "../../../components/logo.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { usePlatformSettings } from "../../../domain/platform-settings.js";
import { usePageTitle } from "../../../lib/page-title.js";
import { type AuthTab, AuthTabs } from "../components/auth-tabs.js";
import { LazyRegisterForm, LazyRegistrationClosed, preloadRegisterForm } from "../components/lazy-register-form.js";
import { LoginForm } from "../components/login-form.js";
import { MarketingPanel } from "../components/marketing-panel.js";
import type { RegisterDraft } from "../components/use-register-flow.js";

type Tab = AuthTab;

function RegisterLoading() {
  return (
    <div className="flex justify-center py-10">
      <Spinner label="Loading the registration form" />
    </div>
  );
}

/** /login and /auth: one card with Login and Register tabs; ?tab=register opens Register. */
export function AuthPage() {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const registerDraft = useRef<RegisterDraft>({ values: null, step: 1 }).current;
  const [tab, setTab] = useState<Tab>(() => (new URLSearchParams(search).get("tab") === "register" ? "register" : "login"));
  const { settings, isPending: settingsPending } = usePlatformSettings();
  const name = settings.platformName;
  // The tab says which screen it is, in the tabs' own words: "Login · Lumora", "Register · Lumora" (decision 060).
  usePageTitle(tab === "login" ? "Login" : "Register");

  const changeTab = (next: Tab) => {
    setTab(next);
    const params = new URLSearchParams(search);
    if (next === "register") params.set("tab", "register");
    else params.delete("tab");
    const query = params.toString();
    navigate(`${location}${query ? `?${query}` : ""}`, { replace: true });
  };

  return (
    <div className="min-h-screen bg-muted/40">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-6 sm:px-6 lg:py-12">
        <Logo />
        <div className="grid items-start gap-8 lg:grid-cols-2">
          <Card className="w-full">
            <CardHeader>
              <CardTitle className="text-2xl">{tab === "login" ? "Welcome back" : "Create your account"}</CardTitle>
              <CardDescription>
                {tab === "login"
                  ? `Sign in to continue to ${name}.`
                  : settings.allowRegistration
                    ? `Join ${name} in two short steps.`
                    : `${name} is not taking new sign-ups right now.`}
              </CardDescription>
            </CardHeader>
            <CardContent>
              <AuthTabs value={tab} onChange={changeTab} onRegisterIntent={preloadRegisterForm}>
                {tab === "login" ? (
                  <LoginForm />
                ) : settingsPending ? (
                  <RegisterLoading />
                ) : (
                  <Suspense fallback={<RegisterLoading />}>
                    {settings.allowRegistration ? (
                      <LazyRegisterForm draft={registerDraft} />
                    ) : (
                      <LazyRegistrationClosed onLogin={() => changeTab("login")} />
                    )}
                  </Suspense>
                )}
              </AuthTabs>
            </CardContent>
          </Card>
          <MarketingPanel />
        </div>
      </div>
    </div>
  );
}
