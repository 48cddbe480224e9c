import { Controller, type UseFormReturn } from "react-hook-form";
import type { RegisterForm } from "../../../../shared/contracts/auth.js";
import { Checkbox } from "../../../components/ui/checkbox.js";
import { FieldError } from "../../../components/ui/form-field.js";
import { Label } from "../../../components/ui/label.js";
import { paths } from "../../../lib/paths.js";
import { PlanOptions } from "./plan-options.js";

const linkClass = "font-medium text-primary underline underline-offset-4";

/** Plan choice and the terms checkbox. */
export function RegisterStepTwo({ form, earlyAccessAvailable }: { form: UseFormReturn<RegisterForm>; earlyAccessAvailable: boolean }) {
  const termsError = form.formState.errors.acceptTerms?.message;
  return (
    <div className="grid gap-5">
      <fieldset className="grid gap-3">
        <legend className="mb-3 text-sm font-medium">Choose your plan</legend>
        <Controller
          control={form.control}
          name="planType"
          render={({ field }) => <PlanOptions value={field.value} onChange={field.onChange} earlyAccessAvailable={earlyAccessAvailable} />}
        />
      </fieldset>
      <div className="grid gap-2">
        <div className="flex items-start gap-3">
          <Controller
            control={form.control}
            name="acceptTerms"
            render={({ field }) => (
              <Checkbox
                id="register-accept-terms"
                className="mt-0.5"
                checked={field.value}
                onCheckedChange={(checked) => field.onChange(checked === true)}
                onBlur={field.onBlur}
                ref={field.ref}
                aria-invalid={termsError ? true : undefined}
                aria-describedby={termsError ? "register-accept-terms-error" : undefined}
              />
            )}
          />
          <Label htmlFor="register-accept-terms" className="leading-snug font-normal">
            <span>
              I agree to the{" "}
              <a href={paths.terms} target="_blank" rel="noopener noreferrer" className={linkClass}>
                Terms of Service
              </a>{" "}
              and the{" "}
              <a href={paths.privacy} target="_blank" rel="noopener noreferrer" className={linkClass}>
                Privacy Policy
              </a>
            </span>
          </Label>
        </div>
        <FieldError id="register-accept-terms-error" message={termsError} />
      </div>
    </div>
  );
}
