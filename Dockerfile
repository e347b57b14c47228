# The rebelote server as an image: `rebelote serve` on port 8000, with the
# expert's compiled solver (the "fast" extra).  compose.yaml runs two of them
# on PostgreSQL and Redis behind Caddy; see the README, "Many processes".
#
#   docker build -t rebelote .
#   docker run --rm -p 8000:8000 rebelote        # one process, SQLite inside

FROM python:3.11-slim-bookworm AS build
COPY --from=ghcr.io/astral-sh/uv:0.13.8 /uv /usr/local/bin/uv
ENV UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    UV_PYTHON_DOWNLOADS=never \
    UV_PROJECT_ENVIRONMENT=/opt/rebelote
WORKDIR /src
# the dependencies first: this layer is kept while only the code changes
COPY pyproject.toml uv.lock ./
RUN uv sync --frozen --no-dev --extra fast --no-install-project
COPY README.md ./
COPY src ./src
RUN uv sync --frozen --no-dev --extra fast --no-editable

FROM python:3.11-slim-bookworm
RUN useradd --system --create-home --home-dir /home/rebelote rebelote
COPY --from=build /opt/rebelote /opt/rebelote
ENV PATH=/opt/rebelote/bin:$PATH \
    PYTHONUNBUFFERED=1
USER rebelote
WORKDIR /home/rebelote
# numba's disk cache of the expert's solver kernel and the rollouts, in the
# user's ~/.cache/numba (the package itself is read-only for this user):
# compiled here once, loaded in a few tenths of a second by every process of
# the image (a host with another kind of processor compiles and caches anew)
RUN python -c "from rebelote.solver import warm_up; warm_up()" \
 && python -c "from rebelote.rollout import random_deals; from rebelote.rules import preset; random_deals(preset('ffb'), 10)"
EXPOSE 8000
CMD ["rebelote", "serve", "--host", "0.0.0.0", "--port", "8000"]
