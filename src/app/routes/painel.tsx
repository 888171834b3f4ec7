import { DashboardScreen } from '@/features/dashboard/components/dashboard-screen';

export default function PainelRoute() {
  return <DashboardScreen />;
}
