import { useState, type ReactNode } from 'react';
import { DateField, dateTextToWire, wireToDateText } from '@/components/ui/date-field';
import { SelectField } from '@/components/ui/field';
import { localDay } from '@/lib/dates';
import type { LedgerQuery } from '@/features/points/api/ledger';

/** The ledger's day and terminal as chosen: today's, every terminal, at first. */
export function useLedgerFilter() {
  const [today] = useState(localDay);
  const [dayText, setDayText] = useState(() => wireToDateText(today));
  const [query, setQuery] = useState<LedgerQuery>({ day: today, terminal: null });
  return { today, dayText, setDayText, query, setQuery, isToday: query.day === today };
}
export type LedgerFilter = ReturnType<typeof useLedgerFilter>;

/**
 * The ledger's "Dia" and "Terminal" fields (a day typed whole moves the list to it) and what
 * follows them in the bar (the export), as the dialog and the manager screen show them.
 */
export function LedgerFilterBar({
  filter,
  terminals,
  className,
  children,
}: {
  filter: LedgerFilter;
  terminals: readonly { id: string; nome: string }[];
  className: string;
  children: ReactNode;
}) {
  const { dayText, setDayText, query, setQuery } = filter;
  return (
    <div className={`flex flex-wrap items-start gap-x-4 gap-y-2 ${className}`}>
      <DateField
        label="Dia"
        className="w-40"
        value={dayText}
        onValueChange={(text) => {
          setDayText(text);
          const day = dateTextToWire(text);
          if (day) setQuery({ ...query, day });
        }}
      />
      <SelectField
        label="Terminal"
        className="min-w-48"
        value={query.terminal ?? ''}
        onChange={(e) => setQuery({ ...query, terminal: e.target.value || null })}
      >
        <option value="">Todos os terminais</option>
        {terminals.map((t) => (
          <option key={t.id} value={t.id}>
            {t.nome}
          </option>
        ))}
      </SelectField>
      {children}
    </div>
  );
}
