// The kiosk route: the kiosk feature, full screen, without the app's header or navigation.
import { KioskScreen } from '@/features/kiosk/kiosk-screen';

export default function QuiosqueRoute({ onExit }: { onExit: () => void }) {
  return <KioskScreen onExit={onExit} />;
}

// The counter's "Enviar ao quiosque" lives in this same chunk: one kiosk chunk, so the kiosk's
// API module is never a chunk shared by two lazy chunks (which split the counter's entry).
export { default as SendToKiosk } from '@/features/kiosk/send-to-kiosk';
