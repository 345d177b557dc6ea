import BiotechIcon from '@mui/icons-material/Biotech';
import { lazyView } from '../components/lazyView';

// Each view is downloaded the first time it is opened (components/lazyView.ts).
const MarkerList = lazyView(() => import('./MarkerList'), 'MarkerList');
const MarkerShow = lazyView(() => import('./MarkerShow'), 'MarkerShow');

export default {
  list: MarkerList,
  show: MarkerShow,
  icon: BiotechIcon,
  options: { label: 'Markers' },
  recordRepresentation: 'name',
};
