export * from './common';
export * from './users';
export * from './timeseries';
export * from './admin';
export * from './labs';
export * from './orders';
export * from './appointments';
export * from './webhooks';
