import type { PublicUser } from "../../../../shared/contracts/user.js";
import { PlanSummary } from "../../../components/plan-summary.js";
import { AvatarSection } from "./avatar-section.js";
import { ProfileForm } from "./profile-form.js";

export function ProfileTab({ user }: { user: PublicUser }) {
  return (
    <div className="grid gap-8">
      <AvatarSection user={user} />
      <PlanSummary user={user} />
      <ProfileForm user={user} />
    </div>
  );
}
