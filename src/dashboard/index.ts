import { lazyView } from '../components/lazyView';

// Downloaded after sign-in, like the resources' views (components/lazyView.ts).
export const Overview = lazyView(() => import('./Overview'), 'Overview');
