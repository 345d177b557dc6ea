/**
 * The dashboard's table of contents: providers, layout, and one <Resource> per folder.
 * Adding a resource is one import and one line: `<Resource name="orders" {...orders} />`.
 */
import { CustomRoutes, Resource } from 'react-admin';
import { Admin } from './layout/Admin';
import { Route } from 'react-router-dom';
import { Layout } from './layout/Layout';
import { LoginPage } from './layout/LoginPage';
import { theme } from './layout/theme';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import appointments from './appointments';
import audit from './audit';
import { can } from './auth/permissions';
import labAccounts from './lab-accounts';
import markers from './markers';
import orders from './orders';
import parserJobs from './parser-jobs';
import { ACCOUNT_PATH } from './providers/authProvider';
import staff from './staff';
import users from './users';
import webhookEndpoints from './webhook-endpoints';
import { lazyView } from './components/lazyView';
import { Overview } from './dashboard';

// Downloaded when first opened, like the resources' views (two-factor enrolment brings qrcode).
const AccountPage = lazyView(() => import('./account/AccountPage'), 'AccountPage');

export const App = () => (
  <Admin
    title="Labdesk"
    disableTelemetry
    requireAuth
    dataProvider={dataProvider}
    authProvider={authProvider}
    loginPage={LoginPage}
    layout={Layout}
    dashboard={Overview}
    theme={theme}
  >
    {(role: unknown) => (
      <>
        {can(role, 'users:read') && <Resource name="users" {...users} />}
        {can(role, 'orders:read') && (
          <Resource name="orders" {...orders} create={can(role, 'orders:write') ? orders.create : undefined} />
        )}
        {can(role, 'appointments:read') && <Resource name="appointments" {...appointments} />}
        {can(role, 'catalogue:read') && <Resource name="lab-accounts" {...labAccounts} />}
        {can(role, 'catalogue:read') && <Resource name="markers" {...markers} />}
        {can(role, 'parser:read') && <Resource name="parser-jobs" {...parserJobs} create={can(role, 'parser:upload') ? parserJobs.create : undefined} />}
        {can(role, 'webhooks:manage') && <Resource name="webhook-endpoints" {...webhookEndpoints} />}
        {can(role, 'audit:read') && <Resource name="audit-events" {...audit} />}
        {can(role, 'staff:manage') && <Resource name="staff" {...staff} />}
        {can(role, 'staff:manage') && <Resource name="role-policies" />}
        <CustomRoutes>
          <Route path={ACCOUNT_PATH} element={<AccountPage />} />
        </CustomRoutes>
      </>
    )}
  </Admin>
);
