import type { ReactNode } from 'react';

type Tone = 'error' | 'warning' | 'success' | 'info';

const tones: Record<Tone, { box: string; icon: string; label: string }> = {
  error: { box: 'border-red-700 bg-red-50 text-red-900', icon: '⚠', label: 'Erro' },
  warning: { box: 'border-amber-600 bg-amber-50 text-amber-950', icon: '!', label: 'Atenção' },
  success: {
    box: 'border-emerald-700 bg-emerald-50 text-emerald-950',
    icon: '✓',
    label: 'Sucesso',
  },
  info: { box: 'border-blue-700 bg-blue-50 text-blue-950', icon: 'i', label: 'Informação' },
};

/** A message box; errors and warnings are announced to screen readers. */
export function Alert({
  tone,
  title,
  children,
  className = '',
}: {
  tone: Tone;
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  const t = tones[tone];
  return (
    <div
      role={tone === 'error' || tone === 'warning' ? 'alert' : 'status'}
      className={`flex gap-3 rounded-md border-l-4 px-4 py-3 ${t.box} ${className}`}
    >
      <span aria-hidden="true" className="font-bold">
        {t.icon}
      </span>
      <div className="flex flex-col gap-1">
        {title && (
          <p className="font-semibold">
            <span className="sr-only">{t.label}: </span>
            {title}
          </p>
        )}
        {children}
      </div>
    </div>
  );
}
