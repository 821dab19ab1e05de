/**
 * The app's version (apps/web/package.json `version`), as a door device reports it to the devices
 * page (docs/decisions/116). Vite keeps only this field of the JSON in the bundle.
 */
export { version as APP_VERSION } from '../../package.json';
