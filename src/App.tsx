/**
 * The dashboard's table of contents: providers, layout, and one <Resource> per folder.
 * Adding a resource is one import and one line: `<Resource name="orders" {...orders} />`.
 */
import { Admin, Resource } from 'react-admin';
import { Layout } from './layout/Layout';
import { Login } from './layout/Login';
import { theme } from './layout/theme';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import audit from './audit';
import { can } from './auth/permissions';
import users from './users';

export const App = () => (
  <Admin
    title="Labdesk"
    disableTelemetry
    requireAuth
    dataProvider={dataProvider}
    authProvider={authProvider}
    loginPage={Login}
    layout={Layout}
    theme={theme}
  >
    {(role: unknown) => (
      <>
        {can(role, 'users:read') && <Resource name="users" {...users} />}
        {can(role, 'audit:read') && <Resource name="audit-events" {...audit} />}
      </>
    )}
  </Admin>
);
