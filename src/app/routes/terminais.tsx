import { TerminaisScreen } from '@/features/terminais/components/terminais-screen';

export default function TerminaisRoute() {
  return <TerminaisScreen />;
}
