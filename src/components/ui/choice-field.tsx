import type { ReactNode } from 'react';
import { SelectField } from '@/components/ui/field';

/** One option of a ChoiceField: the value it sends and the text a person reads. */
export type Choice = { value: string; text: ReactNode };

/** The choices of an enum in `order`, each in the words `labels` give it. */
export const choicesOf = <K extends string>(
  order: readonly K[],
  labels: Record<K, ReactNode>,
): Choice[] => order.map((value) => ({ value, text: labels[value] }));

/**
 * A select of `choices`, after a first one worth '' ("Todas", "Escolha…") if `first` is given;
 * hands back the value chosen. The manager screens' filters and forms pick from lists this way.
 */
export function ChoiceField({
  label,
  className,
  value,
  error,
  first,
  choices,
  onValue,
}: {
  label: string;
  className?: string;
  value: string;
  error?: string | undefined;
  /** The text of the '' option, if there is one. */
  first?: string;
  choices: readonly Choice[];
  onValue: (value: string) => void;
}) {
  return (
    <SelectField
      label={label}
      className={className}
      value={value}
      error={error}
      onChange={(e) => onValue(e.target.value)}
    >
      {first !== undefined && <option value="">{first}</option>}
      {choices.map((c) => (
        <option key={c.value} value={c.value}>
          {c.text}
        </option>
      ))}
    </SelectField>
  );
}
