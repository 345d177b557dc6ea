/**
 * Copies a text to the clipboard and says so. Needs a secure context (https or localhost); where
 * the Clipboard API is missing it says to copy by hand rather than failing silently.
 */
import { useState } from 'react';
import { Button, type ButtonProps } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';

export const CopyButton = ({ text, label = 'Copy', ...rest }: { text: string; label?: string } & Omit<ButtonProps, 'onClick'>) => {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <Button
      onClick={() => void copy()}
      startIcon={state === 'copied' ? <CheckIcon /> : <ContentCopyIcon />}
      aria-live="polite"
      {...rest}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select and copy by hand' : label}
    </Button>
  );
};
