import BiotechIcon from '@mui/icons-material/Biotech';
import { MarkerList } from './MarkerList';
import { MarkerShow } from './MarkerShow';

export default {
  list: MarkerList,
  show: MarkerShow,
  icon: BiotechIcon,
  options: { label: 'Markers' },
  recordRepresentation: 'name',
};
