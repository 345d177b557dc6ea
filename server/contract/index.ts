export * from './common';
export * from './users';
export * from './timeseries';
export * from './admin';
