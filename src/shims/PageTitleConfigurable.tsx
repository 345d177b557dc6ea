/**
 * react-admin's page title without its in-place editor. <Title> renders PageTitleConfigurable, whose
 * editor (a TextField: MUI's Select, Popover and inputs) exists only for react-admin's preferences
 * edit mode, which Labdesk never turns on (no <InspectorButton>, so no title is ever saved there);
 * its error page uses <Title>, which put all of that into the first download. Aliased in
 * vite.config.ts for ra-ui-materialui's own import of it: every page title renders as react-admin's
 * PageTitle does (which the package does not export, hence the copy below).
 */
import { useTranslate } from 'react-admin';
import type { ReactNode } from 'react';

interface Props {
  title?: string | ReactNode;
  defaultTitle?: ReactNode;
  className?: string;
  preferenceKey?: string | false;
  [rest: string]: unknown;
}

// ra-ui-materialui re-exports this name; with no edit mode there is nothing to edit.
export const PageTitleEditor = () => null;

export const PageTitleConfigurable = ({ preferenceKey: _preferenceKey, title, defaultTitle, className, ...rest }: Props) => {
  const translate = useTranslate();
  return (
    <span className={className}>
      {!title ? <span {...rest}>{defaultTitle}</span> : typeof title === 'string' ? <span {...rest}>{translate(title, { _: title })}</span> : title}
    </span>
  );
};
