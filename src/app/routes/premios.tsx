import { RewardsScreen } from '@/features/rewards/components/rewards-screen';

export default function PremiosRoute() {
  return <RewardsScreen />;
}
