import EventIcon from '@mui/icons-material/Event';
import { lazyView } from '../components/lazyView';

// Each view is downloaded the first time it is opened (components/lazyView.ts).
const AppointmentList = lazyView(() => import('./AppointmentList'), 'AppointmentList');
const AppointmentShow = lazyView(() => import('./AppointmentShow'), 'AppointmentShow');

// No create or edit: appointments are booked, moved and cancelled from an at-home order's page
// (and the appointment page), through the order's appointment actions.
export default {
  list: AppointmentList,
  show: AppointmentShow,
  icon: EventIcon,
  options: { label: 'Appointments' },
  recordRepresentation: (r: { order?: { patient_name?: string | null } | null; id: string }) => r.order?.patient_name || `Order ${r.id.slice(0, 8)}`,
};
