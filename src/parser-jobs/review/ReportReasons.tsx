/** Doubts about the report as a whole (no results, metadata not found, a poor scan), above the table. */
import { Alert, AlertTitle } from '@mui/material';
import type { ReviewReason } from '../types';

/** `reviewed`: the job is past review, so the doubts are history, not work to do. */
export const ReportReasons = ({ reasons, doubtfulCells, reviewed }: { reasons: ReviewReason[]; doubtfulCells: number; reviewed?: boolean }) => {
  if (!reasons.length && !doubtfulCells) return null;
  const cells = `${doubtfulCells} doubtful ${doubtfulCells === 1 ? 'cell' : 'cells'}`;
  return (
    <Alert severity={reviewed ? 'info' : 'warning'} sx={{ mb: 2 }} role="region" aria-label="Why this report needs review">
      <AlertTitle>
        {reviewed ? `Sent to review with ${cells}` : doubtfulCells ? `${cells} to check` : 'Check this report'}
      </AlertTitle>
      {reasons.length > 0 && (
        <ul style={{ margin: 0, paddingLeft: 20 }}>
          {reasons.map((r, i) => (
            <li key={`${r.code}-${i}`} data-code={r.code}>
              {r.message || r.code}
            </li>
          ))}
        </ul>
      )}
    </Alert>
  );
};
