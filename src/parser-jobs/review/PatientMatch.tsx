/**
 * Is this report the patient's? The name and date of birth read from the report (as the reviewer
 * corrects them) beside those on the patient's orders, with the verdict: a report filed under the
 * wrong patient would enter their history, so a mismatch is said plainly.
 */
import { Alert, AlertTitle, Box, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import type { PatientCheck } from '../../../server/contract';
import { comparePatient, type PatientIdentity } from '../../../server/contract/patientIdentity';
import type { ResultMetadata } from '../types';

/** The verdict for the report's header as it stands now; null when the service gave no identities to compare with. */
export function patientCheckOf(metadata: ResultMetadata, known: PatientCheck | undefined): PatientCheck | null {
  if (!known) return null;
  return comparePatient({ first_name: metadata.patient_first_name || null, last_name: metadata.patient_last_name || null, dob: metadata.dob || null }, known.patient);
}

const name = (p: PatientIdentity) => [p.first_name, p.last_name].filter(Boolean).join(' ') || '—';

export const PatientMatch = ({ check }: { check: PatientCheck | null }) => {
  if (!check) return null;
  const rows = (
    <Table size="small" aria-label="Report and patient identity" sx={{ mt: 1, maxWidth: 560 }}>
      <TableHead>
        <TableRow>
          <TableCell />
          <TableCell>Name</TableCell>
          <TableCell>Date of birth</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        <TableRow>
          <TableCell component="th">On the report</TableCell>
          <TableCell>{name(check.report)}</TableCell>
          <TableCell>{check.report.dob ?? '—'}</TableCell>
        </TableRow>
        {check.patient.map((p, i) => (
          <TableRow key={`${name(p)}-${p.dob}-${i}`}>
            <TableCell component="th">{i === 0 ? "On the patient's orders" : ''}</TableCell>
            <TableCell>{name(p)}</TableCell>
            <TableCell>{p.dob ?? '—'}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
  if (check.status === 'mismatch') {
    return (
      <Alert severity="error" role="alert" aria-label="Patient mismatch" sx={{ mb: 2 }}>
        <AlertTitle>This report may not be this patient's: the {check.differences.join(' and ')} differ</AlertTitle>
        Check the report was uploaded for the right patient. Approving it files its values in this patient's history.
        {rows}
      </Alert>
    );
  }
  if (check.status === 'match') {
    return (
      <Alert severity="success" aria-label="Patient matches" sx={{ mb: 2 }}>
        The name and date of birth on the report match this patient's orders.
      </Alert>
    );
  }
  return (
    <Alert severity="info" aria-label="Patient not compared" sx={{ mb: 2 }}>
      {check.patient.length === 0
        ? 'This patient has no orders to compare the report with: check the name and date of birth against your records.'
        : 'The report does not show enough of the name and date of birth to compare with this patient.'}
      <Box>{rows}</Box>
    </Alert>
  );
};
