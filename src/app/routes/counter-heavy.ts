export { SalePanel } from '@/features/points/components/sale-panel';
export { PostedPanel } from '@/features/points/components/posted-panel';
export { CustomerPanel } from '@/features/customers/components/customer-panel';
export { RegisterForm } from '@/features/customers/components/register-form';
export { NotFoundPanel } from '@/features/customers/components/not-found-panel';
export { PostingStatus } from '@/features/points/components/posting-status';
export { LedgerDialog } from '@/features/points/components/ledger-dialog';
export { EnrollScreen } from '@/features/terminals/enroll-screen';
