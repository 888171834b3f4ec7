// The kiosk route: the kiosk feature, full screen, without the app's header or navigation.
import { KioskScreen } from '@/features/kiosk/kiosk-screen';

export default function QuiosqueRoute({ onExit }: { onExit: () => void }) {
  return <KioskScreen onExit={onExit} />;
}
