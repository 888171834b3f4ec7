import { AuditScreen } from '@/features/audit/components/audit-screen';

export default function AuditoriaRoute() {
  return <AuditScreen />;
}
