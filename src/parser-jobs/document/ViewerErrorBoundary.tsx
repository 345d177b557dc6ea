/**
 * Catches a viewer that fails to load or render (the PDF chunk did not arrive, the browser lacks a
 * canvas feature) so the rest of the review page keeps working: the reviewer can still open the
 * original in a tab. React has no hook for this; it must be a class.
 */
import { Component, type ReactNode } from 'react';

interface Props {
  fallback: ReactNode;
  children: ReactNode;
}

export class ViewerErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
