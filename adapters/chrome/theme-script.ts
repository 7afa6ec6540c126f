/** Where the chrome keeps the person's colour scheme (`light`, `dark`; absent: the system's). */
export const THEME_KEY = 'porter-theme';

/**
 * The page's first script, inline in `<head>` (allowed by its hash in the page's CSP): it sets
 * `data-theme` (`light` or `dark`, what the styles follow) and `data-theme-choice` (`system`,
 * `light` or `dark`) on `<html>` before anything is painted, so a chosen scheme never flashes the
 * other one; then it follows the system's scheme while the choice is `system`, and another tab's
 * choice.
 */
export const THEME_SCRIPT = `(function(){var r=document.documentElement,m=matchMedia('(prefers-color-scheme: dark)');function a(){var c=null;try{c=localStorage.getItem('${THEME_KEY}')}catch(e){}if(c!=='light'&&c!=='dark')c='system';r.setAttribute('data-theme-choice',c);r.setAttribute('data-theme',c==='system'?(m.matches?'dark':'light'):c)}a();m.addEventListener('change',a);addEventListener('storage',function(e){if(e.key==='${THEME_KEY}')a()})})();`;
