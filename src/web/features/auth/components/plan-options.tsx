import { Check, Clock } from "lucide-react";
import type { PlanType } from "../../../../shared/constants.js";
import { Badge } from "../../../components/ui/badge.js";
import { Label } from "../../../components/ui/label.js";
import { RadioGroup, RadioGroupItem } from "../../../components/ui/radio-group.js";
import { useEarlyAccessPrice, useFreePlanPrice } from "../../../domain/payment-settings.js";
import { cn } from "../../../lib/cn.js";

const earlyAccessPerks = ["All premium AI models", "Unlimited course generation", "Custom training personalities", "Priority support"];
const freePerks = ["Basic chat", "Limited model selection", "Standard support"];

function PlanCard({
  value,
  selected,
  title,
  price,
  note,
  perks,
  recommended = false,
  unavailable = null,
}: {
  value: PlanType;
  selected: boolean;
  title: string;
  price: string;
  note: string;
  perks: string[];
  recommended?: boolean;
  /** Why this plan cannot be chosen now (the card is disabled and says so), or null. */
  unavailable?: string | null;
}) {
  const id = `plan-${value}`;
  return (
    <Label
      htmlFor={id}
      className={cn(
        "flex gap-3 rounded-lg border p-4 transition-colors",
        unavailable ? "cursor-not-allowed bg-muted/40" : "cursor-pointer hover:bg-accent/50",
        selected && "border-primary bg-primary/5 ring-1 ring-primary",
      )}
    >
      <RadioGroupItem
        id={id}
        value={value}
        className="mt-1"
        disabled={Boolean(unavailable)}
        aria-describedby={unavailable ? `${id}-unavailable` : undefined}
      />
      <span className="grid flex-1 gap-2">
        <span className="flex flex-wrap items-center justify-between gap-2">
          <span className="flex items-center gap-2 text-base font-semibold">
            {title}
            {recommended ? <Badge>RECOMMENDED</Badge> : null}
          </span>
          <span className="text-right">
            <span className="text-lg font-bold">{price}</span> <span className="text-xs font-normal text-muted-foreground">{note}</span>
          </span>
        </span>
        {unavailable ? (
          <span id={`${id}-unavailable`} className="flex items-start gap-2 text-sm font-normal text-muted-foreground">
            <Clock className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
            <span>
              <span className="font-medium text-foreground">Not available yet.</span> {unavailable}
            </span>
          </span>
        ) : null}
        <span className={cn("grid gap-1", unavailable && "opacity-60")}>
          {perks.map((perk) => (
            <span key={perk} className="flex items-center gap-2 text-sm font-normal text-muted-foreground">
              <Check className="size-3.5 text-primary" aria-hidden="true" />
              {perk}
            </span>
          ))}
        </span>
      </span>
    </Label>
  );
}

/** Early Access (RECOMMENDED, price from the payment settings; disabled while payments are not set up) or Free (nothing, in the same currency). */
export function PlanOptions({
  value,
  onChange,
  earlyAccessAvailable,
}: {
  value: PlanType;
  onChange: (plan: PlanType) => void;
  earlyAccessAvailable: boolean;
}) {
  const { price, currency, isLoading } = useEarlyAccessPrice();
  const freePrice = useFreePlanPrice();
  return (
    <RadioGroup value={value} onValueChange={(plan) => onChange(plan as PlanType)} aria-label="Plan">
      <PlanCard
        value="earlyAccess"
        selected={value === "earlyAccess"}
        title="Early Access"
        price={isLoading ? "…" : price}
        note={`${currency} · one-time`}
        perks={earlyAccessPerks}
        recommended
        unavailable={earlyAccessAvailable ? null : "Card payments are not set up yet; you can upgrade later."}
      />
      <PlanCard value="free" selected={value === "free"} title="Free" price={freePrice} note="forever" perks={freePerks} />
    </RadioGroup>
  );
}
