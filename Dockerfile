# The website as a container: the wheel, the knowledge base built into the image, and
# `kb serve --public`. One image, any number of replicas (docs/deploy.md).
#
#   docker build -t tcg-rules-kb .
#   docker run --rm -p 8001:8001 tcg-rules-kb
#
# The database is built at image build time, so it is part of the image: immutable, the same
# in every replica, and replaced by deploying a new image.

FROM python:3.11-slim AS wheel
WORKDIR /src
COPY . .
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
RUN useradd --system --no-create-home --shell /usr/sbin/nologin kb
COPY --from=wheel /wheels/ /tmp/wheels/
RUN pip install --no-cache-dir /tmp/wheels/*.whl && rm -rf /tmp/wheels \
    && mkdir -p /srv/kb && kb build --db /srv/kb/kb.sqlite --quiet \
    && chmod 0444 /srv/kb/kb.sqlite && chmod 0555 /srv/kb
USER kb
EXPOSE 8001
# /-/kb-health runs a tiny query on the served connection and in an ask/search worker: 503
# (so an error here) while the workers start or when the replica cannot answer.
HEALTHCHECK --interval=10s --timeout=3s \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8001/-/kb-health', timeout=2)"]
CMD ["kb", "serve", "--public", "--db", "/srv/kb/kb.sqlite", "--host", "0.0.0.0", "--port", "8001"]
