/**
 * React-admin's <Admin>, put together from its own parts (AdminContext, CoreAdminUI) so that its
 * stock sign-in form is not part of the first download: <Admin>'s AdminUI names that form as the
 * default of `loginPage`, which keeps it (and every text field it uses: MUI's TextField, Select,
 * Menu, Popover...) in the bundle even when a custom page is given. Labdesk's own sign-in page is
 * loaded when someone is signed out (layout/LoginPage.tsx). Same props, same behaviour otherwise:
 * English messages, the local-storage store, CssBaseline, notifications.
 */
import { CssBaseline } from '@mui/material';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import {
  AccessDenied,
  AdminContext,
  AuthCallback,
  AuthenticationError,
  CoreAdminUI,
  Error,
  Layout as DefaultLayout,
  LoadingPage,
  localStorageStore,
  NotFound,
  Notification,
  type AdminProps,
} from 'react-admin';

const i18nProvider = polyglotI18nProvider(() => englishMessages, 'en', [{ name: 'en', value: 'English' }], { allowMissing: true });
/** React-admin's store (list parameters and preferences), read by firstPage.ts before the app renders. */
export const store = localStorageStore();
const CatchAll = () => <NotFound />;

export const Admin = ({
  // AdminContext
  authProvider,
  basename,
  darkTheme,
  dataProvider,
  defaultTheme,
  lightTheme,
  queryClient,
  routerProvider,
  theme,
  // AdminUI
  notification: AdminNotification = Notification,
  layout = DefaultLayout,
  ...ui
}: Omit<AdminProps, 'i18nProvider' | 'store'> & Required<Pick<AdminProps, 'loginPage'>>) => (
  <AdminContext
    authProvider={authProvider}
    basename={basename}
    darkTheme={darkTheme}
    dataProvider={dataProvider}
    defaultTheme={defaultTheme}
    i18nProvider={i18nProvider}
    lightTheme={lightTheme}
    queryClient={queryClient}
    routerProvider={routerProvider}
    store={store}
    theme={theme}
  >
    <CssBaseline enableColorScheme>
      <CoreAdminUI
        accessDenied={AccessDenied}
        authCallbackPage={AuthCallback}
        authenticationError={AuthenticationError}
        catchAll={CatchAll}
        error={Error}
        layout={layout}
        loading={LoadingPage}
        {...ui}
      />
      <AdminNotification />
    </CssBaseline>
  </AdminContext>
);
