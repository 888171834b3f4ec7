import { PainelScreen } from '@/features/painel/components/painel-screen';

export default function PainelRoute() {
  return <PainelScreen />;
}
