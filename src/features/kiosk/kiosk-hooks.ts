// The kiosk screen's timers and browser state: the idle countdown, whether the kiosk is
// online, full screen, and its offline shell (service worker).
import { useEffect, useState } from 'react';
import { isApiError } from '@/api/errors';
import { useLatest } from '@/hooks/use-latest';
import { currentSale } from './api';

/** Without a touch this long, the kiosk asks whether someone is still there… */
export const IDLE_MS = 30_000;
/** …and goes back to the welcome screen after this countdown. */
export const COUNTDOWN_S = 10;

/**
 * Seconds left of the idle countdown (null while someone is using the kiosk). Any touch or
 * key restarts the wait; the countdown reaching 0 calls `onTimeout`.
 */
export function useIdle(active: boolean, onTimeout: () => void): number | null {
  const [left, setLeft] = useState<number | null>(null);
  const timeout = useLatest(onTimeout);
  useEffect(() => {
    if (!active) return;
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    let tick: ReturnType<typeof setInterval> | undefined;
    const wait = () => {
      idleTimer = setTimeout(() => {
        let n = COUNTDOWN_S;
        setLeft(n);
        tick = setInterval(() => {
          n -= 1;
          if (n > 0) return setLeft(n);
          clearInterval(tick);
          setLeft(null);
          timeout.current();
        }, 1000);
      }, IDLE_MS);
    };
    const touched = () => {
      clearTimeout(idleTimer);
      clearInterval(tick);
      setLeft(null);
      wait();
    };
    wait();
    const events = ['pointerdown', 'keydown'] as const;
    for (const e of events) window.addEventListener(e, touched, { capture: true });
    return () => {
      clearTimeout(idleTimer);
      clearInterval(tick);
      setLeft(null);
      for (const e of events) window.removeEventListener(e, touched, { capture: true });
    };
  }, [active, timeout]);
  return active ? left : null;
}

/** Online as the browser and the server see it: offline until a request gets through again. */
export function useOnline(): boolean {
  // Online at first, as in the page the app server paints (the kiosk's offline copy of the
  // page is one of those); the browser's own word follows at once.
  const [online, setOnline] = useState(true);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const probe = async () => {
      clearTimeout(timer);
      try {
        await currentSale();
        if (!stopped) setOnline(true);
      } catch (err) {
        if (stopped) return;
        if (isApiError(err) && (err.kind === 'network' || err.kind === 'timeout')) {
          setOnline(false);
          timer = setTimeout(() => void probe(), 3_000);
        }
      }
    };
    const off = () => {
      setOnline(false);
      timer = setTimeout(() => void probe(), 3_000);
    };
    const on = () => void probe();
    window.addEventListener('offline', off);
    window.addEventListener('online', on);
    if (navigator.onLine) void probe();
    else off();
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener('offline', off);
      window.removeEventListener('online', on);
    };
  }, []);
  return online;
}

export function enterFullscreen() {
  if (document.fullscreenElement === null && document.documentElement.requestFullscreen) {
    void document.documentElement.requestFullscreen().catch(() => undefined);
  }
}

export function leaveFullscreen() {
  if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
}

/** Registers the kiosk's offline shell (only the kiosk: the counter's first load is untouched). */
export function useOfflineShell(): void {
  useEffect(() => {
    if ('serviceWorker' in navigator && import.meta.env.PROD) {
      void navigator.serviceWorker
        .register('/sw.js')
        .then(() => navigator.serviceWorker.ready)
        .then((reg) => {
          const loaded = performance
            .getEntriesByType('resource')
            .map((e) => new URL(e.name).pathname)
            .filter((p) => p.startsWith('/assets/'));
          reg.active?.postMessage({ cache: loaded });
        })
        .catch(() => undefined);
    }
  }, []);
}
