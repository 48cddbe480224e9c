import type { ReactNode } from "react";
import { Logo } from "../../../components/logo.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.js";

/** The frame of the two public password pages: the logo and one centred card, like /auth. */
export function ResetCard({ title, description, children }: { title: string; description: ReactNode; children: ReactNode }) {
  return (
    <div className="min-h-screen bg-muted/40">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-6 sm:px-6 lg:py-12">
        <Logo />
        <Card className="mx-auto w-full max-w-md">
          <CardHeader>
            <CardTitle className="text-2xl">{title}</CardTitle>
            <CardDescription>{description}</CardDescription>
          </CardHeader>
          <CardContent>{children}</CardContent>
        </Card>
      </div>
    </div>
  );
}
