import DescriptionIcon from '@mui/icons-material/Description';
import { ParserJobCreate } from './ParserJobCreate';
import { ParserJobList } from './ParserJobList';
import { ParserJobShow } from './ParserJobShow';

// No edit: a job's data changes only through a review (on the show page).
export default {
  list: ParserJobList,
  show: ParserJobShow,
  create: ParserJobCreate,
  icon: DescriptionIcon,
  options: { label: 'Lab reports' },
  recordRepresentation: (r: { id: string; file?: { name: string } }) => r.file?.name ?? `Job ${r.id.slice(0, 8)}`,
};
