// Old links to a lobby table (net/table.html?table=ID, &watch=1 to watch)
// lead to the main table: /#/table/ID, or /#/watch/ID.  The page is
// replaced in the history, so "back" does not come here again.

const params = new URLSearchParams(location.search);
const table = params.get('table');
let route = '';
if (table && /^[\w-]+$/.test(table)) {
  route = params.get('watch') === '1' ? `#/watch/${table}` : `#/table/${table}`;
}
location.replace(`/${route}`);
