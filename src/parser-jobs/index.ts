import DescriptionIcon from '@mui/icons-material/Description';
import { lazyView } from '../components/lazyView';

// Each view is downloaded the first time it is opened (components/lazyView.ts).
const ParserJobCreate = lazyView(() => import('./ParserJobCreate'), 'ParserJobCreate');
const ParserJobList = lazyView(() => import('./ParserJobList'), 'ParserJobList');
const ParserJobShow = lazyView(() => import('./ParserJobShow'), 'ParserJobShow');

// No edit: a job's data changes only through a review (on the show page).
export default {
  list: ParserJobList,
  show: ParserJobShow,
  create: ParserJobCreate,
  icon: DescriptionIcon,
  options: { label: 'Lab reports' },
  recordRepresentation: (r: { id: string; file?: { name: string } }) => r.file?.name ?? `Job ${r.id.slice(0, 8)}`,
};
