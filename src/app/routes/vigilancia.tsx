import { VigilanciaScreen } from '@/features/vigilancia/components/vigilancia-screen';

export default function VigilanciaRoute() {
  return <VigilanciaScreen />;
}
