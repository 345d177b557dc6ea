/**
 * The sign-in page as <Admin loginPage> sees it: the form (layout/Login.tsx) is downloaded only when
 * someone is signed out, so a signed-in member's first page does not carry it and its text fields.
 * React-admin renders the login route outside its layout's <Suspense>, hence the one here.
 */
import { Suspense } from 'react';
import { LoadingPage } from 'react-admin';
import { lazyView } from '../components/lazyView';

const Login = lazyView(() => import('./Login'), 'Login');

export const LoginPage = () => (
  <Suspense fallback={<LoadingPage />}>
    <Login />
  </Suspense>
);
