import type { ReactNode } from 'react';
import { Layout as RaLayout } from 'react-admin';
import { AppBar } from './AppBar';
import { Menu } from './Menu';
import { useSessionWatch } from './useSessionWatch';

export const Layout = ({ children }: { children: ReactNode }) => {
  useSessionWatch();
  return (
    <RaLayout appBar={AppBar} menu={Menu}>
      {children}
    </RaLayout>
  );
};
