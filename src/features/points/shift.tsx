import {
  createContext,
  use,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';

/** A shift ends by itself after this long without a key press, click or posting. */
export const SHIFT_IDLE_MS = 15 * 60 * 1000;

type Shift = {
  /** The attendant password, in memory only (never storage, cookies or the URL). */
  password: string | null;
  /** Why the password is being asked again, if it is. */
  reason: 'idle' | 'rejected' | null;
  open: (password: string) => void;
  close: (reason?: 'idle' | 'rejected' | null) => void;
};

const ShiftContext = createContext<Shift | null>(null);

export function ShiftProvider({
  children,
  idleMs = SHIFT_IDLE_MS,
}: {
  children: ReactNode;
  idleMs?: number;
}) {
  const [password, setPassword] = useState<string | null>(null);
  const [reason, setReason] = useState<Shift['reason']>(null);
  const lastUse = useRef(0);

  const open = useCallback((pw: string) => {
    lastUse.current = Date.now();
    setPassword(pw);
    setReason(null);
  }, []);
  const close = useCallback((why: Shift['reason'] = null) => {
    setPassword(null);
    setReason(why);
  }, []);

  useEffect(() => {
    if (password === null) return;
    const touch = () => {
      lastUse.current = Date.now();
    };
    const check = () => {
      if (Date.now() - lastUse.current >= idleMs) close('idle');
    };
    window.addEventListener('keydown', touch, true);
    window.addEventListener('pointerdown', touch, true);
    const timer = window.setInterval(check, Math.min(15_000, idleMs));
    return () => {
      window.removeEventListener('keydown', touch, true);
      window.removeEventListener('pointerdown', touch, true);
      window.clearInterval(timer);
    };
  }, [password, idleMs, close]);

  const value = useMemo(() => ({ password, reason, open, close }), [password, reason, open, close]);
  return <ShiftContext value={value}>{children}</ShiftContext>;
}

export function useShift(): Shift {
  const shift = use(ShiftContext);
  if (!shift) throw new Error('useShift outside ShiftProvider');
  return shift;
}
