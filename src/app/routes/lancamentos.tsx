import { LedgerScreen } from '@/features/points/components/ledger-screen';

export default function LancamentosRoute() {
  return <LedgerScreen />;
}
