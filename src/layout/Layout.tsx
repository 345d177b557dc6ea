import type { ReactNode } from 'react';
import { Layout as RaLayout } from 'react-admin';
import { AppBar } from './AppBar';
import { useSessionWatch } from './useSessionWatch';

// The default Menu lists every <Resource> with a list view, so new resources need no menu change.
export const Layout = ({ children }: { children: ReactNode }) => {
  useSessionWatch();
  return <RaLayout appBar={AppBar}>{children}</RaLayout>;
};
