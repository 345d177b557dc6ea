/**
 * Is this report the patient's? The name and date of birth read from the report, as the reviewer
 * corrects them, beside those on the patient's orders, with the verdict: a report filed under the
 * wrong patient would enter their history, so a mismatch is said plainly, and so is a report that
 * could not be compared (no orders, a header that cannot be read), with what to check instead.
 * The header as read counts as much as the correction, as it does for the service.
 */
import { Alert, AlertTitle, Box, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import type { PatientCheck } from '../../../server/contract';
import { compareReviewedPatient, headerIdentity, patientCheckMessage, type PatientIdentity } from '../../../server/contract/patientIdentity';
import type { ResultMetadata } from '../types';

/**
 * The verdict for the report's header as it stands now, against the header as read (the service's
 * check of the job); null when the service gave no check.
 */
export function patientCheckOf(metadata: ResultMetadata, known: PatientCheck | undefined): PatientCheck | null {
  if (!known) return null;
  const asRead = known.extracted?.report ?? known.report;
  return compareReviewedPatient(asRead, headerIdentity(metadata), known.patient);
}

const name = (p: PatientIdentity) => [p.first_name, p.last_name].filter(Boolean).join(' ') || '—';
const FIELDS = new Set(['name', 'date of birth']);
const whatDiffers = (differences: string[]) =>
  differences.every((d) => FIELDS.has(d))
    ? `the ${differences.join(' and ')} ${differences.length === 1 ? 'differs' : 'differ'}`
    : 'its name and date of birth belong to different orders';

const IdentityRow = ({ label, identity }: { label: string; identity: PatientIdentity }) => (
  <TableRow>
    <TableCell component="th">{label}</TableCell>
    <TableCell>{name(identity)}</TableCell>
    <TableCell>{identity.dob || '—'}</TableCell>
  </TableRow>
);

const Identities = ({ check }: { check: PatientCheck }) => (
  <Table size="small" aria-label="Report and patient identity" sx={{ mt: 1, maxWidth: 560 }}>
    <TableHead>
      <TableRow>
        <TableCell />
        <TableCell>Name</TableCell>
        <TableCell>Date of birth</TableCell>
      </TableRow>
    </TableHead>
    <TableBody>
      {check.extracted ? (
        <>
          <IdentityRow label="Read from the report" identity={check.extracted.report} />
          <IdentityRow label="As corrected" identity={check.report} />
        </>
      ) : (
        <IdentityRow label="On the report" identity={check.report} />
      )}
      {check.patient.map((p, i) => (
        <IdentityRow key={`${name(p)}-${p.dob}-${i}`} label={i === 0 ? "On the patient's orders" : ''} identity={p} />
      ))}
      {check.patient.length === 0 && (
        <TableRow>
          <TableCell component="th">On the patient's orders</TableCell>
          <TableCell colSpan={2}>No orders</TableCell>
        </TableRow>
      )}
    </TableBody>
  </Table>
);

export const PatientMatch = ({ check }: { check: PatientCheck | null }) => {
  if (!check) return null;
  if (check.status === 'mismatch') {
    return (
      <Alert severity="error" role="alert" aria-label="Patient mismatch" sx={{ mb: 2 }}>
        <AlertTitle>This report may not be this patient's: {whatDiffers(check.differences)}</AlertTitle>
        {patientCheckMessage(check)} Approving it files its values in this patient's history.
        <Identities check={check} />
      </Alert>
    );
  }
  if (check.status === 'match') {
    return (
      <Alert severity="success" aria-label="Patient matches" sx={{ mb: 2 }}>
        The name and date of birth on the report match this patient's orders.
        {check.extracted && <Identities check={check} />}
      </Alert>
    );
  }
  return (
    <Alert severity="warning" aria-label="Patient not compared" sx={{ mb: 2 }}>
      <AlertTitle>Check this report is this patient's</AlertTitle>
      {patientCheckMessage(check)}
      <Box>
        <Identities check={check} />
      </Box>
    </Alert>
  );
};
