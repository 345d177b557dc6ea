import { Box, Typography } from '@mui/material';

/** The address fields both orders (`zip`) and appointments (`zip_code`) carry; read loosely, they come from upstream. */
export interface AddressLike {
  first_line?: unknown;
  second_line?: unknown;
  unit?: unknown;
  city?: unknown;
  state?: unknown;
  zip?: unknown;
  zip_code?: unknown;
  access_notes?: unknown;
}

const str = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '');

export function addressLines(a: AddressLike | null | undefined): string[] {
  if (!a) return [];
  const cityLine = [str(a.city), [str(a.state), str(a.zip_code) || str(a.zip)].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  // `unit` is the deprecated twin of `second_line`: shown only when second_line is empty.
  return [str(a.first_line), str(a.second_line) || str(a.unit), cityLine].filter(Boolean);
}

/**
 * An address with its access notes (gate codes, parking), which the phlebotomist needs as much as
 * the street: they are always shown with it, or "No access notes" is said out loud.
 */
export const AddressBlock = ({ address, label = 'Address' }: { address: AddressLike | null | undefined; label?: string }) => {
  const lines = addressLines(address);
  const access = str(address?.access_notes);
  return (
    <Box aria-label={label} role="group">
      <Box component="address" sx={{ fontStyle: 'normal', typography: 'body2' }}>
        {lines.length ? lines.map((line) => <div key={line}>{line}</div>) : <Typography variant="body2" color="text.secondary">No address</Typography>}
      </Box>
      <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 1 }}>
        Access notes
      </Typography>
      {access ? (
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }} data-testid="address-access-notes">
          {access}
        </Typography>
      ) : (
        <Typography variant="body2" color="text.secondary">
          No access notes
        </Typography>
      )}
    </Box>
  );
};
