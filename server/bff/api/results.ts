import { z } from 'zod';
import { BiomarkerHistory, BiomarkerSummaries, CriticalAcknowledgement, LabResultsRaw, TeamSettings, TeamSettingsPatch } from '../../contract';

/**
 * An order's results as the dashboard reads them: the service's LabResultsRaw and who acknowledged
 * its critical value (null while nobody has; absent where the service does not say).
 */
export const OrderResults = LabResultsRaw.extend({
  critical_acknowledgement: CriticalAcknowledgement.nullable().optional(),
}).meta({ id: 'OrderResults' });
export type OrderResults = z.infer<typeof OrderResults>;

export { RESULTS_NOT_READY } from './constants';

/** `POST /api/orders/:id/critical-acknowledgement`: the signed-in member is who acknowledges. */
export const AcknowledgeCritical = z.object({
  note: z.string().trim().max(1000, 'must be at most 1000 characters').optional(),
});
export { CriticalAcknowledgement };

/** A patient's biomarkers: the latest of each analyte and each analyte's history (the service's extension as is). */
export const PatientBiomarkers = BiomarkerSummaries.meta({ id: 'PatientBiomarkers' });
export type PatientBiomarkers = z.infer<typeof PatientBiomarkers>;
export const PatientBiomarkerHistory = BiomarkerHistory.meta({ id: 'PatientBiomarkerHistory' });
export type PatientBiomarkerHistory = z.infer<typeof PatientBiomarkerHistory>;
export const BiomarkerHistoryParams = z.object({ id: z.string().max(100), loinc: z.string().regex(/^\d{1,7}-\d$/, 'must be a LOINC code such as 2345-7') });

/** The team's own settings (admins, on the webhooks page). */
export const TeamSettingsRecord = TeamSettings.meta({ id: 'TeamSettingsRecord' });
export type TeamSettingsRecord = z.infer<typeof TeamSettingsRecord>;
export const UpdateTeamSettings = TeamSettingsPatch;
