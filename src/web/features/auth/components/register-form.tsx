import { ArrowLeft, ArrowRight } from "lucide-react";
import { Button } from "../../../components/ui/button.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { RegisterStepOne } from "./register-step-one.js";
import { RegisterStepTwo } from "./register-step-two.js";
import { type RegisterDraft, useRegisterFlow } from "./use-register-flow.js";

/** Step 1: account details and Next. Step 2: plan, terms, Back and Create Account. */
export function RegisterForm({ draft }: { draft: RegisterDraft }) {
  const { form, step, back, onSubmit, isPending, pendingLabel, earlyAccessAvailable } = useRegisterFlow(draft);
  return (
    <form noValidate className="grid gap-5" onSubmit={onSubmit}>
      <p className="text-sm text-muted-foreground">
        Step {step} of 2: {step === 1 ? "your account details" : "choose a plan"}
      </p>
      {step === 1 ? <RegisterStepOne form={form} /> : <RegisterStepTwo form={form} earlyAccessAvailable={earlyAccessAvailable} />}
      {step === 1 ? (
        <Button type="submit" className="w-full">
          Next
          <ArrowRight aria-hidden="true" />
        </Button>
      ) : (
        <div className="flex flex-col-reverse gap-3 sm:flex-row">
          <Button variant="outline" className="sm:flex-1" onClick={back} disabled={isPending}>
            <ArrowLeft aria-hidden="true" />
            Back
          </Button>
          <Button type="submit" className="sm:flex-[2]" disabled={isPending}>
            {isPending ? <ButtonSpinner /> : null}
            {isPending ? pendingLabel : "Create Account"}
          </Button>
        </div>
      )}
    </form>
  );
}
