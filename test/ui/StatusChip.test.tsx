import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StatusChip, type KnownStatus } from '../../src/components/StatusChip';

const known: Record<string, KnownStatus> = { completed: { label: 'Completed', color: 'success' } };

describe('StatusChip', () => {
  it('labels a status it knows', () => {
    render(<StatusChip value="completed" known={known} />);
    expect(screen.getByText('Completed')).toBeInTheDocument();
  });

  it('still shows a status it has never heard of, as the raw value', () => {
    render(<StatusChip value="awaiting_courier" known={known} />);
    expect(screen.getByText('awaiting_courier')).toHaveAttribute('class', expect.stringContaining('MuiChip-label'));
  });

  it('does not mistake inherited object keys for statuses', () => {
    render(<StatusChip value="toString" known={known} />);
    expect(screen.getByText('toString')).toBeInTheDocument();
  });
});
