import { Alert, Button, Stack } from '@mui/material';
import { WALK_IN_RADII } from '../../../server/bff/api';

/**
 * No center of the order's lab within the searched radius: rather than a dead end, offer the
 * larger radii the service allows (AllowedRadius); past the largest, say what is left to do.
 */
export const NoCentersNearby = ({ lab, radius, onWiden }: { lab: string; radius: string; onWiden: (radius: string) => void }) => {
  const wider = WALK_IN_RADII.filter((r) => Number(r) > Number(radius));
  if (wider.length === 0) {
    return (
      <Alert severity="info">
        {`No ${lab} center within ${radius} miles of the patient's address. Check the address on the order; if it is right, the patient needs an at-home draw order instead.`}
      </Alert>
    );
  }
  return (
    <Alert severity="info">
      <Stack spacing={1}>
        <span>{`No ${lab} center within ${radius} miles of the patient's address. Search farther, or check the address on the order.`}</span>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {wider.map((r) => (
            <Button key={r} size="small" variant="outlined" onClick={() => onWiden(r)}>
              {`Search within ${r} miles`}
            </Button>
          ))}
        </Stack>
      </Stack>
    </Alert>
  );
};
