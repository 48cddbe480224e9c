import { useQuery } from "@tanstack/react-query";
import { displayName } from "../../../domain/display-name.js";
import { useCurrentUser } from "../../../domain/session.js";
import { usePageTitle } from "../../../lib/page-title.js";
import { firstVisitQuery } from "../api.js";
import { DashboardHero } from "../components/dashboard-hero.js";
import { GettingStartedVideos } from "../components/getting-started-videos.js";
import { KeyFeatures } from "../components/key-features.js";
import { QuickActions } from "../components/quick-actions.js";
import { YourPlan } from "../components/your-plan.js";

/** / and /dashboard for a signed-in user. */
export function DashboardPage() {
  usePageTitle("Dashboard");
  const { user } = useCurrentUser();
  const firstVisit = useQuery(firstVisitQuery);
  return (
    <div className="grid gap-10">
      <DashboardHero name={displayName(user)} firstVisit={firstVisit.data} />
      {user ? <YourPlan user={user} /> : null}
      <KeyFeatures />
      <GettingStartedVideos />
      <QuickActions isAdmin={user?.role === "admin"} />
    </div>
  );
}
