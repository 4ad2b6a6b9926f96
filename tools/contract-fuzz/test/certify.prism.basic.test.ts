/**
 * A certify run through Prism against the basic reference server (issue 31); test/support/
 * certify-through-prism.ts says what the run is and what it is held to. One file per mode, so the two
 * runs go side by side.
 */
import { describeCertifyThroughPrism } from './support/certify-through-prism.js';

describeCertifyThroughPrism('basic');
