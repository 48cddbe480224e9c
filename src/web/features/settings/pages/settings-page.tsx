import { Code2, KeyRound, MessagesSquare, SlidersHorizontal, UserRound } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { PageSpinner } from "../../../components/ui/spinner.js";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../components/ui/tabs.js";
import { useCurrentUser } from "../../../domain/session.js";
import { usePageTitle } from "../../../lib/page-title.js";
import { AiPreferences } from "../components/ai-preferences.js";
import { ApiTokensCard } from "../components/api-tokens-card.js";
import { ChatDataCard } from "../components/chat-data-card.js";
import { PasswordForm } from "../components/password-form.js";
import { ProfileTab } from "../components/profile-tab.js";
import { SharedLinksCard } from "../components/shared-links-card.js";

const sections = {
  profile: { title: "Profile", description: "Your photo, plan, name and email." },
  password: { title: "Password", description: "Changing it signs you out on your other devices." },
  ai: { title: "AI Preferences", description: "How the AI answers you. Changes are saved at once." },
  chats: { title: "Your chats", description: "Export your chats, or import them from a file." },
  developer: {
    title: "API tokens",
    description: "Personal tokens for your scripts and tools: each calls the API as you, on the scopes you choose.",
  },
  shares: {
    title: "Shared links",
    description: "Links to read-only copies of your chats. Copy a link, update it to the chat as it is now, or revoke it.",
  },
} as const;

function Section({ id, children }: { id: keyof typeof sections; children: React.ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{sections[id].title}</CardTitle>
        <CardDescription>{sections[id].description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

/** /settings: Account Settings with Profile, Password and AI Preferences tabs. */
export function SettingsPage() {
  usePageTitle("Settings");
  const { user } = useCurrentUser();
  if (!user) return <PageSpinner />;
  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <div className="space-y-1">
        <h1 className="text-3xl font-bold tracking-tight">Account Settings</h1>
        <p className="text-muted-foreground">Manage your profile, password, AI preferences, chats and API tokens.</p>
      </div>
      <Tabs defaultValue="profile">
        <TabsList className="grid h-auto grid-cols-2 sm:w-fit sm:min-w-xl sm:grid-cols-5">
          <TabsTrigger value="profile" className="py-1.5">
            <UserRound aria-hidden="true" className="hidden sm:block" />
            Profile
          </TabsTrigger>
          <TabsTrigger value="password" className="py-1.5">
            <KeyRound aria-hidden="true" className="hidden sm:block" />
            Password
          </TabsTrigger>
          <TabsTrigger value="ai" className="py-1.5">
            <SlidersHorizontal aria-hidden="true" className="hidden sm:block" />
            AI Preferences
          </TabsTrigger>
          <TabsTrigger value="chats" className="py-1.5">
            <MessagesSquare aria-hidden="true" className="hidden sm:block" />
            Your chats
          </TabsTrigger>
          <TabsTrigger value="developer" className="py-1.5">
            <Code2 aria-hidden="true" className="hidden sm:block" />
            Developer
          </TabsTrigger>
        </TabsList>
        {/* Profile and Password stay mounted while another tab shows, so what was typed there is kept. */}
        <TabsContent value="profile" keepMounted>
          <Section id="profile">
            <ProfileTab user={user} />
          </Section>
        </TabsContent>
        <TabsContent value="password" keepMounted>
          <Section id="password">
            <PasswordForm username={user.username} />
          </Section>
        </TabsContent>
        <TabsContent value="ai">
          <Section id="ai">
            <AiPreferences />
          </Section>
        </TabsContent>
        <TabsContent value="chats">
          <Section id="chats">
            <ChatDataCard />
          </Section>
          <div className="mt-6">
            <Section id="shares">
              <SharedLinksCard />
            </Section>
          </div>
        </TabsContent>
        <TabsContent value="developer">
          <Section id="developer">
            <ApiTokensCard />
          </Section>
        </TabsContent>
      </Tabs>
    </div>
  );
}
