/**
 * The review's keyboard: Enter / Alt+↓ (or n outside a text cell) to the next doubtful cell,
 * Shift+Enter / Alt+↑ (or p) to the previous one (n and p only outside text cells and selects), Ctrl/Cmd+Enter to approve (after a
 * confirmation). Tab and Shift+Tab keep their usual meaning: cell by cell. Listens on the document
 * so the keys work wherever focus is, except inside dialogs, which have their own keys.
 */
import { useCallback, useEffect, type RefObject } from 'react';
import { stepDoubtful } from './doubts';

interface ReviewKeysOptions {
  /** Cell keys of the doubtful cells, in reading order. */
  targets: string[];
  container: RefObject<HTMLElement | null>;
  enabled: boolean;
  onApprove: () => void;
}

/** Where a letter is input, not a command: text fields, and selects (typing picks an option: "n" → "None of these"). */
const takesLetters = (el: Element | null) =>
  el instanceof HTMLTextAreaElement ||
  el instanceof HTMLSelectElement ||
  (el instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit'].includes(el.type)) ||
  (el instanceof HTMLElement && el.isContentEditable);

export function useReviewKeys({ targets, container, enabled, onApprove }: ReviewKeysOptions) {
  const focusCell = useCallback(
    (key: string | null) => {
      if (!key) return false;
      const el = container.current?.querySelector<HTMLElement>(`[data-cell="${key}"]`);
      if (!el) return false;
      el.focus();
      if (el instanceof HTMLInputElement) el.select();
      el.scrollIntoView?.({ block: 'nearest' });
      return true;
    },
    [container],
  );

  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('[role="dialog"], [role="presentation"]')) return;
      const inCell = target?.closest('[data-cell]')?.getAttribute('data-cell') ?? null;
      const from = inCell ?? (document.activeElement?.getAttribute('data-cell') || null);
      const step = (direction: 1 | -1) => {
        if (focusCell(stepDoubtful(targets, from, direction))) event.preventDefault();
      };

      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        onApprove();
      } else if (event.altKey && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
        step(event.key === 'ArrowDown' ? 1 : -1);
      } else if (event.key === 'Enter' && !event.altKey && inCell && !(target instanceof HTMLTextAreaElement)) {
        step(event.shiftKey ? -1 : 1);
      } else if ((event.key === 'n' || event.key === 'p') && !event.ctrlKey && !event.metaKey && !event.altKey && !takesLetters(target)) {
        step(event.key === 'n' ? 1 : -1);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled, targets, focusCell, onApprove]);

  return { focusCell };
}
