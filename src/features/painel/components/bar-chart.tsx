// A bar chart drawn as SVG of our own: a few rects and labels cost less than any chart
// library for one series of daily bars. Decorative for assistive technology (the dashboard
// shows the same numbers in a table); its title says what it shows.
import { formatInteger } from '@/lib/points';

export interface Bar {
  label: string;
  value: number;
}

const W = 640;
const H = 180;
const PAD_TOP = 22;
const PAD_BOTTOM = 26;

export function BarChart({
  title,
  bars,
  color,
}: {
  title: string;
  bars: readonly Bar[];
  color: string;
}) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const slot = W / Math.max(1, bars.length);
  const width = Math.max(2, slot * 0.7);
  const usable = H - PAD_TOP - PAD_BOTTOM;
  // A label under every bar while they fit; otherwise every n-th.
  const every = Math.ceil(bars.length / 12);
  return (
    <figure className="min-w-0">
      <figcaption className="mb-1 font-semibold text-slate-800">{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" aria-hidden="true">
        <line x1={0} x2={W} y1={H - PAD_BOTTOM} y2={H - PAD_BOTTOM} stroke="#94a3b8" />
        {bars.map((b, i) => {
          const h = (b.value / max) * usable;
          const x = i * slot + (slot - width) / 2;
          const y = H - PAD_BOTTOM - h;
          return (
            <g key={b.label}>
              <rect x={x} y={y} width={width} height={h} fill={color} rx={2} />
              {bars.length <= 14 && b.value > 0 && (
                <text x={x + width / 2} y={y - 5} textAnchor="middle" fontSize={15} fill="#0f172a">
                  {formatInteger(b.value)}
                </text>
              )}
              {i % every === 0 && (
                <text x={x + width / 2} y={H - 7} textAnchor="middle" fontSize={15} fill="#334155">
                  {b.label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
