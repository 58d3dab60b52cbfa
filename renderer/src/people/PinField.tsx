// A PIN field: digits only (anything else typed is dropped), hidden as typed, never filled in by the
// browser, at most 8 digits (shared/people.ts).
import { PIN_MAX_DIGITS } from '../../../shared/index.ts';

export function PinField(props: { id?: string; value: string; onChange: (pin: string) => void; autoComplete: string; testId: string }) {
  return (
    <input
      {...(props.id ? { id: props.id } : {})}
      type="password"
      inputMode="numeric"
      autoComplete={props.autoComplete}
      maxLength={PIN_MAX_DIGITS}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value.replace(/\D/g, ''))}
      data-testid={props.testId}
    />
  );
}
